describe("suite", () => {
  it("works", function () {
    function check() {}
    const cb = function () {};
    class Mock {
      call() {}
    }
    check(cb, Mock);
  });
});

module.exports = {
  make() {
    function inner() {}
    return inner;
  },
};
