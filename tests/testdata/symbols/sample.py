"""sample.py: every Python symbol kind. Repository in a docstring."""
import os

MAX_RETRIES = 3
default_path = "Repository in a string"


def helper(x):
    def inner(y):
        return y * 2
    return inner(x)


class Repository:
    kind = "git"

    def __init__(self, path):
        self.path = path

    @property
    def name(self):
        return os.path.basename(self.path)

    class Meta:
        ordering = ["name"]


@staticmethod
def decorated():
    return Repository(".")


if os.name == "nt":
    def platform():
        return "windows"

_FASTAPI_SCOPE_KEY = "fastapi_astack"
__ALL_CAPS_2 = 2
_private_var = 1
