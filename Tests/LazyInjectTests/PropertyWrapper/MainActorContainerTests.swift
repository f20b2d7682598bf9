import LazyInject
import Testing

private final class ProgressViewService {
  weak var owner: AnyObject?
  init(owner: AnyObject) { self.owner = owner }
}

private final class View {}

@MainActor
private class ViewController {
  let view = View()
  @Lazy var progressViewService: ProgressViewService

  func showProgress() -> Bool {
    progressViewService.owner === self
  }
}

@MainActor
private final class UsersViewController: ViewController {}

@MainActor
struct MainActorContainerTests {
  /// Registered once for all the tests (Swift Testing creates the suite anew for each).
  private static let registrations: Void = {
    InitializerRegistry.shared.register(ProgressViewService.self, in: ViewController.self) {
      sender in ProgressViewService(owner: sender)
    }
  }()

  init() {
    Self.registrations
  }

  @Test func mainActorContainerResolvesWithItselfAsSender() {
    let controller = UsersViewController()
    #expect(!controller.$progressViewService.isResolved)
    #expect(controller.showProgress())
    #expect(controller.progressViewService === controller.progressViewService)
  }

  @Test func mainActorContainerReleasesItsValue() {
    weak var service: ProgressViewService?
    do {
      let controller = ViewController()
      service = controller.progressViewService
      #expect(service != nil)
    }
    #expect(service == nil)
  }
}
