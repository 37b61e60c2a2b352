// Sample.java: every Java symbol kind. Account in a comment
package demo;

import java.util.List;

public class Sample {
    public static final int LIMIT = 10;
    private String name, label;

    public Sample(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    interface Listener {
        int PRIORITY = 1;
        void onEvent(String event);
    }

    enum Color {
        RED, GREEN;
        Color next() { return GREEN; }
    }

    record Point(int x, int y) {}

    static class Account {
        long balance;
    }

    @interface Marker {
        String value();
    }
}
