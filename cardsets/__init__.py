"""The kernel's own card sets, installed as ``mtgk.cardsets``."""

if __name__ != "mtgk.cardsets":  # the checkout's folder cardsets/ imported by its old name
    raise ImportError("the folder cardsets/ is installed as the package 'mtgk.cardsets': import "
                      "mtgk.cardsets.NAME, not cardsets.NAME (docs/pack-authors.md)",
                      name=__name__)
