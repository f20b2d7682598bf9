/// Reports a registration that replaces another for the same property type and container.
internal enum DuplicateRegistration {
  static func report(replaced: InitializerRegistry.Rule, by rule: InitializerRegistry.Rule) {
    print(
      "LazyInject warning: \(rule) replaces \(replaced.fileID ?? "?"):\(replaced.line ?? 0).")
  }
}
