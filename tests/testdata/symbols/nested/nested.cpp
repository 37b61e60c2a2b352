namespace app {
class Widget {
 public:
  void draw() {
    auto cb = [] {};
    cb();
  }
};
}  // namespace app

static __always_inline __must_check int clamp(int v)
{
	return v;
}
