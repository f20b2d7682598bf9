import LazyInject

/// What UI tests launch the app with: canned network responses instead of the server.
struct UITestingInitializers: InitializerModule {
  /// The launch argument that switches the module on.
  static let launchArgument = "--ui-testing"

  func register(in registry: InitializerRegistry) {
    registry.register(RequestManager.self, scope: .singleton) { _ in MockRequestManager() }
  }
}
