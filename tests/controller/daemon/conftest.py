import pytest
from standin import install

install()


@pytest.fixture
def rig(tmp_path):
    """A runtime on a fresh journal with both links up (the stand-in recogniser)."""
    from rig import Rig

    r = Rig(tmp_path / "t.journal")
    r.link("table", True)
    r.link("reader", True)
    yield r
    r.close()
