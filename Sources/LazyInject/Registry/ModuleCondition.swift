import _LazyInjectShims

/// When a module is installed: UI tests, previews and debug builds switch an app to other
/// initializers with no change to its code.
///
/// ```swift
/// extension InitializerRegistry: @retroactive AutomaticModuleInstallation {
///   public static var automaticModules: [any InitializerModule] {
///     [
///       NetworkInitializers(),
///       MockNetworkInitializers().when(.launchArgument("-ui-testing")),
///       PreviewInitializers().when(.environment("XCODE_RUNNING_FOR_PREVIEWS", "1")),
///     ]
///   }
/// }
/// ```
///
/// The condition is checked when the module is installed. Conditional modules are installed
/// after the unconditional ones of the same `install` (or of the automatic list), so their
/// registrations win (without a duplicate-registration report: that is their purpose);
/// ``InitializerRegistry/description`` and
/// ``InitializerRegistry/explain(_:in:)`` name the module, with its condition, of each rule.
public struct ModuleCondition: Sendable, CustomStringConvertible {
  private let check: @Sendable () -> Bool

  /// How the condition reads in diagnostics: `"launch argument -ui-testing"`.
  public let description: String

  /// Creates a condition that `isMet` decides, described as `description`.
  ///
  /// ```swift
  /// let demoMode = ModuleCondition("demo mode") {
  ///   UserDefaults.standard.bool(forKey: "demoMode")
  /// }
  /// registry.install(NetworkInitializers(), MockNetworkInitializers().when(demoMode))
  /// ```
  public init(_ description: String, _ isMet: @escaping @Sendable () -> Bool) {
    (self.description, check) = (description, isMet)
  }

  /// Whether the condition holds now.
  public var isMet: Bool { check() }

  /// Met when the process was launched with `argument`, as UI tests launch an app
  /// (`app.launchArguments = ["-ui-testing"]`).
  public static func launchArgument(_ argument: String) -> Self {
    Self("launch argument \(argument)") { CommandLine.arguments.contains(argument) }
  }

  /// Met when the environment variable `name` is `value`, as for
  /// `.environment("XCODE_RUNNING_FOR_PREVIEWS", "1")` in SwiftUI previews.
  public static func environment(_ name: String, _ value: String) -> Self {
    Self("environment \(name)=\(value)") {
      _lazyinject_environment(name).map { String(cString: $0) == value } ?? false
    }
  }

  /// Met in a debug build: one compiled without optimization, with `DEBUG` defined, as SwiftPM
  /// and Xcode build an app's packages in its Debug configuration.
  public static var debugBuild: Self {
    #if DEBUG
      Self("debug build") { true }
    #else
      Self("debug build") { false }
    #endif
  }
}

extension InitializerModule {
  /// This module, installed only when `condition` is met.
  ///
  /// ```swift
  /// registry.install(NetworkInitializers(), MockNetworkInitializers().when(.debugBuild))
  /// ```
  public func when(_ condition: ModuleCondition) -> ConditionalModule {
    ConditionalModule(module: self, condition: condition)
  }
}

/// A module installed only when its condition is met; made by ``InitializerModule/when(_:)``.
public struct ConditionalModule: InitializerModule {
  /// The module to install.
  public let module: any InitializerModule

  /// When to install it.
  public let condition: ModuleCondition

  /// Adds the module's registrations to `registry` if the condition is met now.
  public func register(in registry: InitializerRegistry) {
    if condition.isMet { module.register(in: registry) }
  }
}
