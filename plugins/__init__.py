"""The kernel's own mechanics plugins, installed as ``mtgk.plugins``."""

if __name__ != "mtgk.plugins":  # the checkout's folder plugins/ imported by its old name
    raise ImportError("the folder plugins/ is installed as the package 'mtgk.plugins': import "
                      "mtgk.plugins.NAME, not plugins.NAME (docs/pack-authors.md)", name=__name__)
