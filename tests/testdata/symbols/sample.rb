# sample.rb: every Ruby symbol kind. Store in a comment
VERSION = "1.0"

module Shop
  RATE = 2

  class Store
    LIMIT = 5

    def initialize(name)
      @name = name
    end

    def self.open(name)
      new(name)
    end

    class << self
      def registry
        @registry ||= []
      end
    end
  end
end

def top_level_helper
  Shop::Store.open("Store in a string")
end
