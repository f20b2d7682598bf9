import ConsumerApp

// Start-up needs no registration call: the modules install themselves on first resolution.
MainActor.assumeIsolated {
  let screen = ProfileViewController()
  screen.load()
  print(screen.title)
}
