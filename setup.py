"""The package build's one step beyond pyproject.toml: each gettext catalog of
controller/locale compiled (.po → .mo) into the built package, so an installed table reads
its languages without Babel. An editable install has no build copy: it reads the .po with
Babel (a test dependency), controller/locale `translator`."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path("controller/locale").glob("*/LC_MESSAGES/*.po")):
            mo = Path(self.build_lib) / po.with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source, mo.open("wb") as target:
                write_mo(target, read_po(source, locale=po.parts[-3]))


setup(cmdclass={"build_py": BuildWithCatalogs})
