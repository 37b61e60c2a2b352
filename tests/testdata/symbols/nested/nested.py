import hashlib


def _basic_auth_str(username):
    def sha_utf8(x):
        return hashlib.sha1(x).hexdigest()

    if username:
        def md5_utf8(x):
            return hashlib.md5(x).hexdigest()
    else:
        md5_utf8 = lambda x: x

    class Local:
        def method(self):
            def innermost():
                pass

    total = 1
    return sha_utf8


class Session:
    def send(self, request):
        def hook(r):
            return r

        with open("x") as f:
            def in_with():
                pass
        return hook


if True:
    LIMIT = 3
