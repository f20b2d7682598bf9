import LazyInject

/// The article's `ViewController`, with the lazy getters written by hand.
@MainActor
final class HandWrittenViewController {
  let name = Narrator.shared.nextName(for: "HandWrittenViewController")
  let view = View(name: "HandWrittenViewController.view")
  private var storedProgressViewService: ProgressViewService?
  private var storedResourceLoader: ResourceLoader?

  var progressViewService: ProgressViewService {
    if storedProgressViewService == nil {
      storedProgressViewService = ProgressViewService(viewController: self)
    }
    return storedProgressViewService!
  }

  var resourceLoader: ResourceLoader {
    if storedResourceLoader == nil {
      storedResourceLoader = ResourceLoader(kind: "default")
    }
    return storedResourceLoader!
  }

  func loadResources() {
    progressViewService.showProgress(in: view)
    resourceLoader.delegate = self
    resourceLoader.loadResources()
  }

  deinit {
    say("\(name) released")
  }
}

/// Scene 1: the boilerplate `@Lazy` removes, and the laziness it keeps.
enum BoilerplateScene {
  @MainActor
  static func run() {
    say("By hand: a stored optional and a getter for each dependency.")
    var handWritten: HandWrittenViewController? = HandWrittenViewController()
    say("\(handWritten!.name) created; nothing built yet.")
    say("loadResources():")
    handWritten?.loadResources()
    say("The controller goes away:")
    handWritten = nil

    say("With @Lazy: `@Lazy var progressViewService: ProgressViewService` and nothing else.")
    var controller: SettingsViewController? = SettingsViewController()
    say(
      "Built so far: progressViewService \(controller!.$progressViewService.isResolved),"
        + " resourceLoader \(controller!.$resourceLoader.isResolved).")
    say("loadResources():")
    controller?.loadResources()
    say("Reading them again builds nothing: \(controller!.resourceLoader.name).")
    say("The controller goes away:")
    controller = nil
  }
}
