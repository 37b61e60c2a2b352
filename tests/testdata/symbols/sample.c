/* sample.c: every C symbol kind. counter in a comment */
#include <stdio.h>
#define MAX_ITEMS 16
#define SQUARE(x) ((x) * (x) + counter)

struct point {
	int x;
	int y;
};

union value {
	int i;
	float f;
};

enum color {
	RED,
	GREEN = 2,
};

typedef struct {
	int width;
	int height;
} size_t2;

typedef unsigned long ulong_t;

static int counter = 0;
const char *greeting = "counter is not a reference";
extern int declared_elsewhere;

int prototype_only(int a);

static int
add(int a, int b)
{
	counter++;
	return a + b + counter;
}

struct point *make_point(int x, int y)
{
	static struct point p;
	p.x = x;
	p.y = y;
	return &p;
}

int counter_value(void) { return counter; }
