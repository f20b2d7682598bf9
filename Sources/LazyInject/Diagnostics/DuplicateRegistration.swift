extension InitializerRegistry {
  /// A registration that replaced an earlier one for the same property type and container class
  /// in the same registry or override layer.
  ///
  /// The later registration always wins; this report exists because a duplicate is usually a
  /// mistake, such as a module installed twice.
  public struct DuplicateRegistration: Sendable, CustomStringConvertible {
    /// The rule that was replaced.
    public let replaced: Rule

    /// The rule that replaced it.
    public let replacement: Rule

    /// The warning that the default handler prints.
    public var description: String {
      "LazyInject warning: \(replacement) replaces the registration at"
        + " \(replaced.fileID ?? "?"):\(replaced.line ?? 0)."
    }

    /// The default handler: prints the warning the first time each property type and container
    /// class is registered again.
    internal static let warnOnce: @Sendable (DuplicateRegistration) -> Void = { duplicate in
      let pair =
        "\(duplicate.replacement.propertyTypeName) \(duplicate.replacement.containerTypeName ?? "")"
      let isNew = reportedPairs.withLock { $0.insert(pair).inserted }
      if isNew {
        print(duplicate)
      }
    }

    private static let reportedPairs = Protected<Set<String>>([])
  }

  /// Called when a registration replaces another for the same property type and container class;
  /// by default prints a warning once per pair.
  ///
  /// ```swift
  /// registry.duplicateRegistrationHandler = { duplicate in
  ///   assertionFailure(duplicate.description)
  /// }
  /// ```
  ///
  /// Override layers created by ``withOverrides(_:operation:)`` start with the
  /// handler of the registry they override.
  public var duplicateRegistrationHandler: @Sendable (DuplicateRegistration) -> Void {
    get { withState { duplicateHandler } }
    set { withState { duplicateHandler = newValue } }
  }
}
