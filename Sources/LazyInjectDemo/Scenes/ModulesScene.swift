import LazyInject

/// Scene 5: initializers grouped in modules, one per file, installed before the first resolution.
enum ModulesScene {
  @MainActor
  static func run() {
    say("Each file in Initializers/ is an InitializerModule. AutomaticModules.swift lists them,")
    say(
      "and InitializerRegistry.shared installs them before its first resolution: no call in main.")
    say("The first resolution installs them:")
    _ = SettingsViewController().resourceLoader
    say("What is registered now:")
    for line in InitializerRegistry.shared.description.split(separator: "\n") {
      say("  \(line)")
    }
  }
}
