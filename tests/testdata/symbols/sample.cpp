// sample.cpp: every C++ symbol kind. Engine in a comment
#include <string>
#define VERSION 3

namespace app {

enum class Mode { Fast, Slow };

struct Config {
  int threads;
  Mode mode;
};

union Raw {
  int i;
  char c[4];
};

using Name = std::string;
typedef int Count;

class Engine {
 public:
  Engine();
  int run(int steps) { return steps * speed_; }
  void stop();
 private:
  int speed_;
};

template <typename T>
T twice(T value) {
  return value + value;
}

}  // namespace app

app::Engine::Engine() : speed_(1) {}

void app::Engine::stop() {
  const char *s = "Engine stopped";
}

static int global_count = 0;

int main() {
  app::Engine engine;
  return engine.run(2);
}
