describe "thing" do
  def helper
    1
  end

  class Fake
    def call; end
  end
end

def outer
  def inner; end
end
