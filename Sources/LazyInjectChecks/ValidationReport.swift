import LazyInject

extension InitializerRegistry {
  /// What ``InitializerRegistry/validate(classes:)`` and
  /// ``InitializerRegistry/validate(classesIn:excluding:)`` checked, when every property passed.
  ///
  /// ```swift
  /// let report = try registry.validate(classesIn: "MyApp")
  /// #expect(report.skippedGenericClasses == ["MyApp.Cache"], "\(report)")
  /// print(report)
  /// // Checked 42 properties of 17 classes; not checked: generic class MyApp.Cache (validate its
  /// // specializations with validate(classes:)).
  /// ```
  public struct ValidationReport: Sendable, CustomStringConvertible {
    /// The classes checked, as `"MyApp.UsersViewController"`.
    public let checkedClasses: [String]

    /// How many `@Lazy` and `@WeakLazy` properties were checked, an inherited property once per
    /// class that has it.
    public let checkedPropertyCount: Int

    /// The module's generic classes, as `"MyApp.Cache"`, which were not checked.
    ///
    /// A generic class, or a class nested in a generic type (`"MyApp.Outer.Cache"`), has no
    /// metadata to read until specialized: pass its specializations to
    /// ``InitializerRegistry/validate(classes:)``. Empty for `validate(classes:)`.
    public let skippedGenericClasses: [String]

    /// The properties served by async initializers, as `"MyApp.SettingsScreen.database"`: they
    /// resolve, but a read returns only the instance their scope keeps, so build it first with
    /// ``InitializerRegistry/prepare()`` or `$property.load()` (see <doc:AsyncInitializers>).
    ///
    /// Not a failure.
    public let asyncProperties: [String]

    /// The properties that no rule serves and whose type the checked module requires from the
    /// program (``InitializerRegistry/require(_:fileID:line:)``), as
    /// `"Feed.FeedViewModel.analytics: any Core.AnalyticsClient"`: the app provides them, and its
    /// own check verifies it.
    ///
    /// Not a failure. Empty for `validate(classes:)`.
    public let requiredProperties: [String]

    /// A sentence, as `"Checked 42 properties of 17 classes."`, or with generic classes skipped,
    /// `"Checked 42 properties of 17 classes; not checked: generic class MyApp.Cache (validate its
    /// specializations with validate(classes:))."`.
    public var description: String {
      let properties =
        checkedPropertyCount == 1 ? "1 property" : "\(checkedPropertyCount) properties"
      let classes = checkedClasses.count == 1 ? "1 class" : "\(checkedClasses.count) classes"
      let skipped =
        skippedGenericClasses.isEmpty
        ? ""
        : "; not checked: generic \(skippedNoun) \(skippedGenericClasses.joined(separator: ", "))"
          + " (validate \(skippedGenericClasses.count == 1 ? "its" : "their") specializations with"
          + " validate(classes:))"
      let async =
        asyncProperties.isEmpty
        ? ""
        : "; served by async initializers (prepare() or load() before reading): "
          + asyncProperties.joined(separator: ", ")
      let required =
        requiredProperties.isEmpty
        ? "" : "; required from the program: " + requiredProperties.joined(separator: ", ")
      return "Checked \(properties) of \(classes)\(skipped)\(async)\(required)."
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
