/// A stand-in for `UIView`, so that the demo runs on Linux.
final class View: Sendable {
  let name: String

  init(name: String) {
    self.name = name
  }
}
