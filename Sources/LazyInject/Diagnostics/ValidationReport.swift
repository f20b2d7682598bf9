extension InitializerRegistry {
  /// What ``InitializerRegistry/validate(classes:)`` and
  /// ``InitializerRegistry/validate(classesIn:excluding:)`` checked, when every property passed.
  ///
  /// ```swift
  /// let report = try registry.validate(classesIn: "MyApp")
  /// #expect(report.checkedPropertyCount > 0)
  /// print(report)  // Checked 42 properties of 17 classes; skipped generic class MyApp.Cache.
  /// ```
  public struct ValidationReport: Sendable, CustomStringConvertible {
    /// The classes checked, as `"MyApp.UsersViewController"`.
    public let checkedClasses: [String]

    /// How many `@Lazy` and `@WeakLazy` properties were checked, an inherited property once per
    /// class that has it.
    public let checkedPropertyCount: Int

    /// The module's generic classes, which have no metadata to read until specialized, as
    /// `"MyApp.Cache"`: pass their specializations to ``InitializerRegistry/validate(classes:)``.
    public let skippedGenericClasses: [String]

    /// A sentence, as `"Checked 42 properties of 17 classes; skipped generic class MyApp.Cache."`.
    public var description: String {
      let properties =
        checkedPropertyCount == 1 ? "1 property" : "\(checkedPropertyCount) properties"
      let classes = checkedClasses.count == 1 ? "1 class" : "\(checkedClasses.count) classes"
      let skipped =
        skippedGenericClasses.isEmpty
        ? "" : "; skipped generic \(skippedNoun) \(skippedGenericClasses.joined(separator: ", "))"
      return "Checked \(properties) of \(classes)\(skipped)."
    }

    /// The line of an error, as `"Skipped generic class (validate ...): MyApp.Cache."`.
    internal var skippedLine: String {
      "Skipped generic \(skippedNoun) (validate their specializations with validate(classes:)): "
        + skippedGenericClasses.joined(separator: ", ") + "."
    }

    private var skippedNoun: String {
      skippedGenericClasses.count == 1 ? "class" : "classes"
    }
  }
}
