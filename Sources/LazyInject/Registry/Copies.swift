import _LazyInjectScan

// Copies of LazyInject in one process: libraries that each link it statically bring one each,
// and with it a `shared` of its own. Found at the first use of `shared`, in the conformance
// records that its installation reads anyway.

extension InitializerRegistry {
  /// The warning of other copies, until a test under the `.overrides` trait or
  /// `OverridingTestCase` takes it; without its prefix, which `.ci/run` looks for in the output.
  private static let copiesWarning = Protected<String?>(nil)

  /// How many copies' images the warning names at most (`_lazyinject_copies` keeps four).
  private static let copiesNamed = 4

  /// The paths of the images that hold a copy of LazyInject, in load order.
  ///
  /// Call after a conformance query has read the records.
  package static func imagesWithLazyInject() -> [String] {
    var images = [UnsafePointer<CChar>?](repeating: nil, count: copiesNamed)
    let count = _lazyinject_copies(&images, copiesNamed)
    return images.prefix(count).map { String(cString: $0!) }
  }

  /// Warns of more than one image in `images`, and keeps the warning for the first test under
  /// the testing helpers.
  package static func reportCopies(in images: [String]) {
    guard images.count > 1 else { return }
    // The records list at most `copiesNamed` copies.
    let count = images.count < copiesNamed ? "\(images.count)" : "at least \(images.count)"
    let warning = """
      this process holds \(count) copies of LazyInject, each with its own `shared` (a \
      test's mocks reach one only), in \(images.joined(separator: " and ")).
      Fix: link LazyInject once, from the app or one dynamic library that the others depend on.
      """
    copiesWarning.withLock { $0 = warning }
    writeToStandardError("LazyInject warning: \(warning)\n")
  }

  /// The warning of other copies, for the first test under the testing helpers to take.
  package static func takeCopiesWarning() -> String? {
    copiesWarning.withLock { exchange(&$0, with: nil) }
  }
}
