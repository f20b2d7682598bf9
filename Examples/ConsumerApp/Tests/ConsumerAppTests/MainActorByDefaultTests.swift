import ConsumerApp
import Foundation
import LazyInject
import LazyInjectTesting
import Testing

// What an app target with default main-actor isolation (Xcode 26's) relies on: nonisolated
// services resolved on background threads, automatic modules whatever thread comes first, mocks
// that production set-up does not replace, objects that keep the layer they were made in. This
// test target is built that way by default, and also as a classic one and in Swift 5 mode.

/// What a background thread saw, read once it has signalled.
nonisolated private final class Seen: @unchecked Sendable {
  // Written before the thread signals, read after the wait: the semaphore orders them.
  var text = ""
}

/// Runs `body` on a new thread and waits for it, without blocking the main actor.
nonisolated private func onBackgroundThread(_ body: @escaping @Sendable () -> String) async
  -> String
{
  let seen = Seen()
  let done = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    seen.text = body()
    done.signal()
  }
  await withCheckedContinuation { continuation in
    DispatchQueue.global().async {
      done.wait()
      continuation.resume()
    }
  }
  return seen.text
}

/// A profile API a preview uses: a main-actor type, as the protocol is.
private final class OfflineProfileAPI: ProfileAPI {
  func fetchProfile() -> Profile { Profile(name: "Offline") }
}

@MainActor  // Redundant in a target with default main-actor isolation; needed in a classic one.
struct MainActorByDefaultTests {
  @Test func nonisolatedServiceRegisteredByAModuleResolvesOnABackgroundThread() async {
    let fetched = await onBackgroundThread {
      "\(Thread.isMainThread) \(AvatarPrefetcher().prefetch("ada"))"
    }
    #expect(fetched == "false GET https://api.example.com/avatars/ada")
  }

  // Exit tests: Swift Testing runs none on iOS, tvOS, watchOS or visionOS.
  #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    @Test func modulesAreInstalledWhenSharedIsFirstUsedOffTheMainActor() async {
      await #expect(processExitsWith: .success) {
        startWatchdog()
        let fetched = await onBackgroundThread { AvatarPrefetcher().prefetch("grace") }
        guard fetched == "GET https://api.example.com/avatars/grace" else {
          FileHandle.standardError.write(Data("modules missing: \(fetched)\n".utf8))
          exit(1)
        }
      }
    }
  #endif

  @Test(.overrides { $0.registerOnMainActor(ResourceLoader.self) { _ in .mock } })
  func mockWinsOverProductionSetUpTheTestCalls() {
    // The app's production set-up, called from the test as a newcomer would: it goes to the
    // test's layer, below the mock, and dies with the test.
    InitializerRegistry.shared.registerOnMainActor(ResourceLoader.self) { _ in
      ResourceLoader(path: "/production")
    }
    #expect(SettingsViewController().resourceLoader.path == "/mock")
  }

  @Test func screenMadeInsideWithOverridesKeepsTheMockAfterwards() {
    let screen = InitializerRegistry.shared.withOverrides {
      $0.registerOnMainActor(ResourceLoader.self) { _ in ResourceLoader(path: "/preview") }
    } operation: {
      SettingsViewController()  // as a preview or a factory makes it
    }
    #expect(screen.resourceLoader.path == "/preview")
    #expect(SettingsViewController().resourceLoader.path == "/resources")
  }

  @Test func viewModelMadeInsideWithOverridesKeepsTheProtocolTypedMock() {
    let model = InitializerRegistry.shared.withOverrides {
      $0.registerOnMainActor((any ProfileAPI).self) { _ in OfflineProfileAPI() }
    } operation: {
      ProfileViewModel()
    }
    model.load()
    #expect(model.greeting == "Hello, Offline!")
  }
}
