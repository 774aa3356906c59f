"""The build's one custom step: compile the kernel's hot modules with mypyc.

Everything else about the package is in pyproject.toml.  ``pip install .`` (a wheel)
compiles the modules listed in ``kernel/kind.py`` (``COMPILED``) when a C compiler works,
and installs them beside their ``.py`` files; without a compiler, or with
``MTGK_BUILD_PURE=1``, it installs the pure-Python kernel and says why (in pip's output
with ``-v``, and in ``mtgk --version``).  ``pip install -e .`` compiles nothing, so that a
changed ``.py`` takes effect at once.  docs/benchmarks.md, "Compiled kernel", has the
commands.
"""

from __future__ import annotations

import ast
import os
import shutil
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
STAGE = ROOT / "build" / "mypyc"  # the sources laid out as the installed package, the C code
LAYOUT = {"mtgk": "kernel", "mtgk/plugins": "plugins", "mtgk/cardsets": "cardsets"}
NOTE = "kernel-build.txt"  # mtgk.kind.BUILD_NOTE


def compiled_modules() -> list[str]:
    """``COMPILED`` of kernel/kind.py (read, not imported: mtgk is not importable yet)."""
    tree = ast.parse((ROOT / "kernel" / "kind.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and node.target.id == "COMPILED"):
            return list(ast.literal_eval(node.value))  # type: ignore[arg-type]
    raise RuntimeError("kernel/kind.py defines no COMPILED")


def lay_out(src_root: Path = STAGE / "src") -> Path:
    """Copy the Python sources to ``src_root/mtgk/...``: the installed layout, which mypy,
    mypyc and the structure drawing need to name the modules.  The one place that lays
    them out (``dev/layout.py`` and ``dev/typecheck.py`` call it; docs/architecture.md,
    "The folders and the package")."""
    if src_root.exists():
        shutil.rmtree(src_root)
    for installed, folder in sorted(LAYOUT.items(), key=lambda p: len(p[0])):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".pyi") and path.name != "py.typed":
                continue
            if "__pycache__" in path.parts:
                continue
            dest = src_root / installed / path.relative_to(ROOT / folder)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
    return src_root


def why_pure() -> str:
    """Why this build installs the pure-Python kernel; ``""`` if it compiles."""
    if os.environ.get("MTGK_BUILD_PURE", "") not in ("", "0"):
        return "built with MTGK_BUILD_PURE set"
    if sys.implementation.name != "cpython":
        return f"mypyc needs CPython, not {sys.implementation.name}"
    from distutils.ccompiler import new_compiler  # setuptools provides it on every Python
    from distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.c"
        probe.write_text("int mtgk_probe(void) { return 0; }\n", encoding="utf-8")
        try:
            compiler = new_compiler()
            customize_compiler(compiler)
            compiler.compile([str(probe)], output_dir=tmp)
        except Exception:
            return "built without a C compiler"
    return ""


def kernel_extensions(why: str) -> list[Extension]:
    """The compiled modules (mypyc's extensions), or none when ``why`` says why not."""
    if why:
        print(f"mtgk: installing the pure-Python kernel ({why})", file=sys.stderr)
        return []
    from mypyc.build import mypycify  # the build requirement (pyproject.toml)

    src = lay_out()
    paths = [str(src / (name.replace(".", "/") + ".py")) for name in compiled_modules()]
    print(f"mtgk: compiling {len(paths)} kernel modules with mypyc", file=sys.stderr)
    opts = [f"--config-file={ROOT / 'pyproject.toml'}", f"--cache-dir={STAGE / 'mypy_cache'}"]
    return list(mypycify(opts + paths, opt_level="3", group_name="mtgk", multi_file=True,
                         target_dir=str(STAGE / "c")))


class BuildPy(build_py):
    """build_py that leaves the note of :data:`NOTE` in a wheel's package."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            note = Path(self.build_lib) / "mtgk" / NOTE
            note.parent.mkdir(parents=True, exist_ok=True)
            note.write_text(f"{WHY or 'compiled'}\n", encoding="utf-8")

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if not self.editable_mode:
            outputs.append(str(Path(self.build_lib) / "mtgk" / NOTE))
        return outputs


def main() -> None:
    """``setup()``: only a build of a wheel (or a plain ``setup.py build``) compiles; an
    editable install, and the metadata steps pip runs first, do not."""
    global WHY
    building = "editable_wheel" not in sys.argv and any(
        cmd in sys.argv for cmd in ("bdist_wheel", "build", "build_ext", "install"))
    WHY = why_pure() if building else "an editable install or a metadata step"
    if building:  # no compiled module of an earlier build may end up in this one
        for old in (ROOT / "build").glob("lib*"):
            shutil.rmtree(old)
    setup(ext_modules=kernel_extensions(WHY) if building else [],
          cmdclass={"build_py": BuildPy},
          options={"build_ext": {"parallel": os.cpu_count() or 1}})  # one C file a module


WHY = ""  # why this build is pure ("" if it compiles), for BuildPy's note

if __name__ == "__main__":  # as the build backend runs it (tests import it to test why_pure)
    main()
