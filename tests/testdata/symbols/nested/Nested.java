class Nested {
  void run() {
    class Local {
      int value() {
        return 1;
      }
    }
    Runnable r = new Runnable() {
      public void run() {}
    };
  }
}
