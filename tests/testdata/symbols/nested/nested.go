package main

func Handle() int {
	type point struct {
		x int
	}
	const local = 1
	var v = point{}
	run := func() {
		type inner int
	}
	run()
	return v.x + local
}
