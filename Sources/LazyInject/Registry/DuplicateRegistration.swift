extension InitializerRegistry {
  /// A registration that replaced an earlier one for the same property type and container class
  /// (or, for a rule of one property, the same key path) in the same registry or override layer.
  ///
  /// The later registration always wins; this report exists because a duplicate is usually a
  /// mistake, such as a module installed twice.
  public struct DuplicateRegistration: Sendable, CustomStringConvertible {
    /// The rule that was replaced.
    public let replaced: Rule

    /// The rule that replaced it.
    public let replacement: Rule

    /// The warning that the default handler writes to standard error; it says what the replaced
    /// rule was when that differs (a singleton replaced by a unique rule, say).
    public var description: String {
      let lost = replaced.what == replacement.what ? "" : " (\(replaced.what))"
      return "LazyInject warning: \(replacement) replaces the registration at"
        + " \(replaced.site)\(lost)."
    }

    /// The default handler: writes the warning to standard error, once per distinct pair of
    /// registration sites (the replaced one and its replacement).
    internal static let warnOnce: @Sendable (DuplicateRegistration) -> Void = { duplicate in
      let pair = "\(duplicate.replaced.site) \(duplicate.replacement.site)"
      guard reportedPairs.withLock({ $0.insert(pair).inserted }) else { return }
      writeToStandardError("\(duplicate)\n")
    }

    private static let reportedPairs = Protected<Set<String>>([])
  }

  /// Called when a registration replaces another for the same property type and container class
  /// (or the same key path); by default writes a warning to standard error once per pair of
  /// registration sites.
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
    get { withState { $0.duplicateHandler } }
    // The old handler, and what it captured, is released after unlocking.
    set { _ = withState { exchange(&$0.duplicateHandler, with: newValue) } }
  }
}
