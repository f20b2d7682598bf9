print("LazyInjectDemo: coming soon")
