extension InitializerRegistry: CustomStringConvertible {
  /// Every registration, grouped by property type; types, then containers, in name order.
  ///
  /// ```text
  /// InitializerRegistry, 3 registrations
  /// MyApp.RequestManager
  ///   root default: singleton scope (NetworkInitializers.swift:4)
  /// MyApp.ResourceLoader
  ///   in MyApp.ProjectsViewController: unique scope (LoaderInitializers.swift:14)
  ///   in MyApp.UsersViewController: unique scope (LoaderInitializers.swift:12)
  /// ```
  public var description: String {
    // Only references are copied under the lock; names are built and sorted after unlocking.
    let registrations = withState { table.allRegistrations }
    let rules = registrations.map(\.rule)
    var lines = ["InitializerRegistry, \(rules.count) registration\(rules.count == 1 ? "" : "s")"]
    let byProperty = Dictionary(grouping: rules, by: \.propertyTypeName)
    for property in byProperty.keys.sorted() {
      lines.append(property)
      let sorted = byProperty[property]!.sorted {
        ($0.containerTypeName ?? "") < ($1.containerTypeName ?? "")
      }
      for rule in sorted {
        let container = rule.containerTypeName.map { "in \($0)" } ?? "root default"
        lines.append("  \(container): \(rule.scope!) scope\(rule.details)")
      }
    }
    return lines.joined(separator: "\n")
  }
}
