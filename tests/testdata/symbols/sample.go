// sample.go: every Go symbol kind. Server in a comment
package main

import "fmt"

const Version = "1.0"

const (
	ModeA = iota
	ModeB
)

var counter int

type Server struct {
	Name string
	port int
}

type Handler interface {
	Serve(s *Server) error
}

type ID = string

type Port int

func NewServer(name string) *Server {
	return &Server{Name: name}
}

func (s *Server) Start() error {
	fmt.Println("Server starting", s.Name)
	return nil
}

func (Port) Valid() bool { return true }
