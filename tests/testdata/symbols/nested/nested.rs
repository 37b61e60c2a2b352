fn outer() -> i32 {
    fn helper() -> i32 {
        1
    }
    struct Local {
        a: i32,
    }
    const K: i32 = 2;
    let f = || {
        fn in_closure() {}
    };
    helper() + K
}

impl Thing {
    fn method(&self) {
        fn nested_in_method() {}
    }
}
