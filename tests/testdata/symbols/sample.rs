// sample.rs: every Rust symbol kind. Parser in a comment
use std::fmt;

pub const LIMIT: usize = 8;
static GREETING: &str = "Parser in a string";

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

pub struct Parser {
    input: String,
    pos: usize,
}

pub enum Token {
    Word(String),
    End,
}

union Bits {
    i: u32,
    f: f32,
}

pub trait Visitor {
    fn visit(&mut self, token: &Token);
    fn done(&self) -> bool {
        true
    }
}

type Result<T> = std::result::Result<T, String>;

impl Parser {
    pub fn new(input: &str) -> Parser {
        Parser { input: input.to_string(), pos: 0 }
    }
}

impl fmt::Display for Parser {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.input)
    }
}

mod inner {
    pub fn helper() -> usize {
        super::LIMIT
    }
}

fn main() {
    let p = Parser::new("x");
    println!("{}", square!(2));
}
