import LazyInject
import Testing

private final class ResourceLoader {
  let progress: ProgressViewService
  init(progress: ProgressViewService) { self.progress = progress }
}

private final class ProgressViewService: DefaultInitializable {
  init() {}
}

private final class RequestManager {}

private final class Screen {
  @Lazy var resourceLoader: ResourceLoader
  @Lazy var progressViewService: ProgressViewService
}

struct ReentrancyTests {
  @Test func initializerCanReadAnotherLazyPropertyOfItsSender() {
    InitializerRegistry.shared.register(ResourceLoader.self, in: Screen.self) { sender in
      ResourceLoader(progress: sender.progressViewService)
    }
    let screen = Screen()
    #expect(screen.resourceLoader.progress === screen.progressViewService)
  }

  @Test func initializerCanResolveFromItsRegistry() throws {
    let registry = InitializerRegistry()
    registry.register(RequestManager.self, scope: .singleton) { _ in RequestManager() }
    registry.register(ResourceLoader.self) { [unowned registry] sender in
      _ = try registry.resolve(RequestManager.self, for: sender)
      return ResourceLoader(progress: try registry.resolve(ProgressViewService.self, for: sender))
    }
    _ = try registry.resolve(ResourceLoader.self, for: Screen())
    #expect(
      try registry.resolve(RequestManager.self, for: Screen())
        === registry.resolve(
          RequestManager.self, for: Screen()))
  }
}
