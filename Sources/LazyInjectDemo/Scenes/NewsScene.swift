import LazyInject

/// Scene 8b: a news list opened asynchronously at launch, grown by background fetches on a queue
/// of their own, observed by a table; a story's thumbnail loaded when its screen appears.
enum NewsScene {
  @MainActor
  static func run() async {
    say("The app launches and opens the news store asynchronously: prepare().")
    do { try await InitializerRegistry.shared.prepare() } catch { say("  failed: \(error)") }
    let app = AppDelegate()
    say("The app delegate reads the prepared store: \(app.newsStore.items.count) item(s).")
    var table: NewsTableViewController? = NewsTableViewController()
    say("The news table appears:")
    table?.viewDidAppear()
    say("Same store for the app delegate and the table: \(app.newsStore === table!.newsStore).")
    for fetch in 1...3 { backgroundFetch(fetch, app) }
    say("The user switches to another app:")
    table?.appDidEnterBackground()
    for fetch in 4...6 { backgroundFetch(fetch, app) }
    say("The user comes back:")
    table?.appWillEnterForeground()
    say("The user opens the last story:")
    let story = StoryViewController(headline: app.newsStore.items.last!.text)
    await story.viewIsAppearing()
    say("The user closes the news table:")
    table = nil
    say("Observers left: \(app.newsStore.observerCount).")
    backgroundFetch(7, app)
  }

  @MainActor
  private static func backgroundFetch(_ number: Int, _ app: AppDelegate) {
    say("Background fetch \(number):")
    app.performBackgroundFetch { result in
      say("  completion: \(result.rawValue)")
    }
  }
}
