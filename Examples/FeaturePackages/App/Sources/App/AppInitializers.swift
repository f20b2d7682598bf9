import Core
import LazyInject

/// The app's own rules: only what the app alone can build.
///
/// Feed and Profile bring theirs.
struct AppInitializers: InitializerModule {
  func register(in registry: InitializerRegistry) {
    // Both packages require it: the whole-app check fails without this line.
    registry.register((any AnalyticsClient).self, scope: .singleton) { _ in ConsoleAnalytics() }
  }
}
