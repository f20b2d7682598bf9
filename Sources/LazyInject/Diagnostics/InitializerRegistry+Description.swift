extension InitializerRegistry: CustomStringConvertible {
  /// Every registration, grouped by property type; types, then containers, in name order.
  ///
  /// ```text
  /// InitializerRegistry, 5 registrations
  /// any MyApp.Tracking
  ///   root default: forwarded to MyApp.SharedAnalytics (AnalyticsInitializers.swift:5)
  /// MyApp.Logger
  ///   for MyApp.UsersViewController.auditLog: unique scope (LoggerInitializers.swift:4)
  /// MyApp.RequestManager
  ///   root default: singleton scope (NetworkInitializers.swift:4)
  /// MyApp.ResourceLoader
  ///   in MyApp.ProjectsViewController: unique scope (LoaderInitializers.swift:14)
  ///   in MyApp.UsersViewController: unique scope (LoaderInitializers.swift:12)
  /// ```
  ///
  /// Rules for one property come before the type's rules, as a resolution tries them.
  public var description: String {
    // Only references are copied under the lock; names are built and sorted after unlocking.
    let rules = registrations.map(\.rule)
    var lines = ["InitializerRegistry, \(rules.count) registration\(rules.count == 1 ? "" : "s")"]
    let byProperty = Dictionary(grouping: rules, by: \.propertyTypeName)
    for property in byProperty.keys.sorted() {
      lines.append(property)
      // Each rule's text is made once: sorting compares them many times.
      let sorted = byProperty[property]!.map { rule in
        (rule.isPropertyRule ? 0 : 1, rule.containerTypeName ?? "", rule.subject, rule)
      }.sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
      lines += sorted.map { _, _, subject, rule in "  \(subject): \(rule.what)\(rule.details)" }
    }
    return lines.joined(separator: "\n")
  }

  /// Every registration of this registry (not of its layers), in no order.
  package var registrations: [AnyRegistration] { withState { $0.rules.allRegistrations } }
}
