import LazyInject
import Testing

private protocol ResourceLoading: AnyObject {
  var source: String { get }
}

private final class UsersLoader: ResourceLoading {
  let source = "users"
}

private final class RemoteLoader: ResourceLoading {
  let source = "remote"
}

private protocol Formatting {
  func format(_ value: Int) -> String
}

private struct PlainFormatter: Formatting {
  func format(_ value: Int) -> String { "#\(value)" }
}

private final class Screen {
  @Lazy var loader: any ResourceLoading
  @Lazy var formatter: any Formatting
}

private final class SpecialScreen {
  @Lazy var loader: any ResourceLoading
}

struct ProtocolPropertyTests {
  /// Registered once for all the tests (Swift Testing creates the suite anew for each).
  private static let registrations: Void = {
    let registry = InitializerRegistry.shared
    registry.register((any ResourceLoading).self) { _ in RemoteLoader() }
    registry.register((any ResourceLoading).self, in: SpecialScreen.self) { _ in UsersLoader() }
    registry.register((any Formatting).self) { _ in PlainFormatter() }
  }()

  init() {
    Self.registrations
  }

  @Test func protocolTypedPropertyResolvesItsRegisteredExistential() {
    let screen = Screen()
    #expect(screen.loader.source == "remote")
    #expect(screen.loader === screen.loader)
  }

  @Test func protocolTypedPropertyHonoursContainerRegistrations() {
    #expect(SpecialScreen().loader.source == "users")
  }

  @Test func protocolWithValueTypeConformerWorks() {
    #expect(Screen().formatter.format(3) == "#3")
  }

  @Test func assigningAConformerReplacesTheRegisteredOne() {
    let screen = Screen()
    screen.loader = UsersLoader()
    #expect(screen.loader.source == "users")
  }
}
