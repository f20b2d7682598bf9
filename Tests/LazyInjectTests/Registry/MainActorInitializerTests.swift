import Foundation
import LazyInject
@_spi(LazyInjectTesting) import LazyInject
import LazyInjectTestSupport
import LazyInjectTesting
import Observation
import Testing
import XCTest

// The main-actor app as a user writes it: view controllers and UI services are @MainActor.

@MainActor
final class AccountsProgressView {
  let title: String
  init(viewController: AccountsViewController) { title = viewController.title }
}

@MainActor
class AccountsViewController {
  var title = "Accounts"
  @Lazy var progressView: AccountsProgressView
  @Lazy var toast: ToastPresenter
  @Lazy var loader: any AccountsLoading
}

@MainActor
final class AdminAccountsViewController: AccountsViewController {}

@MainActor
final class ToastPresenter {
  let owner: String
  init(owner: String) { self.owner = owner }
}

@MainActor
protocol AccountsLoading: AnyObject {
  func load() -> [String]
}

@MainActor
final class LiveAccountsLoader: AccountsLoading {
  func load() -> [String] { ["live"] }
}

/// A test double that records its calls: main-actor state, not `Sendable`.
@MainActor
final class SpyAccountsLoader: AccountsLoading {
  private(set) var loads = 0
  func load() -> [String] {
    loads += 1
    return ["spy"]
  }
}

@MainActor
struct MainActorInitializerTests {
  private static let registrations: Void = {
    let registry = InitializerRegistry.shared
    registry.registerOnMainActor(AccountsProgressView.self, in: AccountsViewController.self) {
      sender in AccountsProgressView(viewController: sender)
    }
    registry.registerOnMainActor(ToastPresenter.self) { sender in
      ToastPresenter(owner: "\(type(of: sender))")
    }
    registry.registerOnMainActor((any AccountsLoading).self, in: AccountsViewController.self) {
      _ in LiveAccountsLoader()
    }
  }()

  init() {
    Self.registrations
  }

  @Test func mainActorInitializerReadsItsSendersMainActorState() {
    let screen = AdminAccountsViewController()
    screen.title = "Admins"
    #expect(screen.progressView.title == "Admins")
  }

  @Test func mainActorRootDefaultReceivesTheSender() {
    #expect(AccountsViewController().toast.owner.contains("AccountsViewController"))
  }

  @Test func ruleSaysTheInitializerRunsOnTheMainActor() throws {
    let screen = AccountsViewController()
    _ = screen.progressView
    let rule = try #require(screen.$progressView.rule)
    #expect(rule.isMainActor)
    #expect(rule.description.contains("unique scope, main actor"))
  }

  @Test func mainActorTestRegistersASpyItKeepsAndInspectsAfterwards() {
    let spy = SpyAccountsLoader()
    InitializerRegistry.shared.withOverrides {
      $0.registerOnMainActor((any AccountsLoading).self) { _ in spy }
    } operation: {
      #expect(AccountsViewController().loader.load() == ["spy"])
    }
    #expect(spy.loads == 1)
    #expect(AccountsViewController().loader.load() == ["live"])
  }

  @Test func resolvingOffTheMainActorThrowsNamingTheMainActor() throws {
    let screen = AccountsViewController()
    let outcome = Locked<String>("not run")
    runConcurrently(threads: 1) { _ in
      do {
        _ = try InitializerRegistry.shared.resolve(AccountsProgressView.self, for: screen)
        outcome.mutate { $0 = "built" }
      } catch let error as ResolutionError {
        outcome.mutate { $0 = error.kind == .requiresMainActor ? error.description : "\(error)" }
      } catch {
        outcome.mutate { $0 = "\(error)" }
      }
    }
    #expect(outcome.value.contains("off the main actor"))
    #expect(outcome.value.contains("LazyInjectTests.AccountsProgressView"))
  }

  @Test func registrationOnSharedInsideOverridesGoesToTheLayerOnly() {
    InitializerRegistry.shared.withOverrides { _ in
    } operation: {
      InitializerRegistry.shared.registerOnMainActor(
        ToastPresenter.self, in: AccountsViewController.self
      ) {
        _ in ToastPresenter(owner: "test")
      }
      #expect(AccountsViewController().toast.owner == "test")
    }
    #expect(AccountsViewController().toast.owner != "test")
  }
}

/// The test a testing helper named in the innermost layer over `InitializerRegistry.shared`.
func currentTestName() -> String? {
  InitializerRegistry.shared.searchedRegistries.lazy.compactMap(\.testName).first
}

// Apart from the suite above: under the trait, that suite's registrations (made when the suite
// is first created) would go to this test's layer.
struct TestNameTraitTests {
  @Test(.overrides { _ in })
  func traitNamesTheTestItRuns() throws {
    let name = try #require(currentTestName())
    #expect(name.contains("traitNamesTheTestItRuns"))
  }
}

/// A screen whose property is built on the main actor, read from a background thread.
final class MainActorOnlyScreen: @unchecked Sendable {
  // Read from one thread at a time in the exit test below; `@Lazy` guards its slot.
  final class Badge {}
  @Lazy var badge: Badge
}

/// A screen whose property nothing can build.
final class TestNamedScreen {
  final class Missing {}
  @Lazy var missing: Missing
}

struct MainActorFailureTests {
  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func lazyReadOffTheMainActorStopsNamingThePropertyAndTheMainActor() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.shared.registerOnMainActor(
            MainActorOnlyScreen.Badge.self, in: MainActorOnlyScreen.self
          ) { _ in MainActorOnlyScreen.Badge() }
          let screen = MainActorOnlyScreen()
          runConcurrently(threads: 1) { _ in _ = screen.badge }
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("MainActorOnlyScreen.badge off the main actor"))
      #expect(output.contains("must be read on the main actor"))
    }

    @Test func failedReadUnderATestsLayerNamesTheTest() async throws {
      let result = try #require(
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
          startWatchdog()
          InitializerRegistry.shared.withOverrides {
            $0.withState { $0.testName = "testCheckout()" }
          } operation: {
            _ = TestNamedScreen().missing
          }
        })
      let output = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(output.contains("In test testCheckout():"))
      #expect(output.contains("TestNamedScreen.missing"))
    }
  #endif
}

// SwiftUI view models with Observation: `@ObservationIgnored @Lazy` dependencies.

@MainActor
protocol ProfileAPI: AnyObject {
  func name(of user: Int) -> String
}

@MainActor
final class LiveProfileAPI: ProfileAPI {
  func name(of user: Int) -> String { "user \(user)" }
}

@MainActor
final class StubProfileAPI: ProfileAPI {
  private(set) var requests: [Int] = []
  func name(of user: Int) -> String {
    requests.append(user)
    return "Ada"
  }
}

// Observation needs macOS 14 or iOS 17; the package supports older systems.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable @MainActor
final class ProfileModel {
  @ObservationIgnored @Lazy var api: any ProfileAPI
  private(set) var name = ""

  func load(user: Int) {
    name = api.name(of: user)
  }
}

@MainActor
struct ObservationTests {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func observableViewModelUsesASwappedDependencyAndNotifiesObservers() {
    InitializerRegistry.shared.registerOnMainActor((any ProfileAPI).self, in: ProfileModel.self) {
      _ in LiveProfileAPI()
    }
    let stub = StubProfileAPI()
    InitializerRegistry.shared.withOverrides {
      $0.registerOnMainActor((any ProfileAPI).self) { _ in stub }
    } operation: {
      let model = ProfileModel()
      let changed = Locked(false)
      withObservationTracking {
        _ = model.name
      } onChange: {
        changed.mutate { $0 = true }
      }
      model.load(user: 7)
      #expect(model.name == "Ada")
      #expect(changed.value)
    }
    #expect(stub.requests == [7])
    #expect(ProfileModel().api is LiveProfileAPI)
  }
}

// XCTest, as a UIKit app's test target writes it. On Linux, corelibs XCTest runs `@MainActor`
// test methods under `swift test`, but listing them (`swift test --filter`, `swift test list`)
// crashes it, so these methods assume the main actor instead: XCTest runs them on the main thread.

final class MainActorSpyXCTests: OverridingTestCase {
  func testMainActorTestRegistersASpyAndInspectsIt() {
    MainActor.assumeIsolated {
      let spy = SpyAccountsLoader()
      InitializerRegistry.shared.withOverrides {
        $0.registerOnMainActor((any AccountsLoading).self) { _ in spy }
      } operation: {
        XCTAssertEqual(AccountsViewController().loader.load(), ["spy"])
      }
      XCTAssertEqual(spy.loads, 1)
    }
  }

  func testBaseClassNamesTheTestItRuns() {
    let name = currentTestName() ?? ""
    XCTAssertTrue(name.contains("testBaseClassNamesTheTestItRuns"), name)
  }
}

/// A main-actor screen that hears of its injections through an isolated conformance.
@MainActor
final class ObservedAccountsViewController: @MainActor InjectionObserving {
  @Lazy var toast: ToastPresenter
  private(set) var injected: [String] = []

  func didInject(_ value: Any, intoPropertyNamed name: String) {
    injected.append(name)
  }
}

@MainActor
struct MainActorObservingTests {
  @Test func mainActorContainerHearsOfItsInjections() {
    InitializerRegistry.shared.registerOnMainActor(
      ToastPresenter.self, in: ObservedAccountsViewController.self
    ) { _ in ToastPresenter(owner: "observed") }
    let screen = ObservedAccountsViewController()
    _ = screen.toast
    #expect(screen.injected == ["toast"])
  }
}
