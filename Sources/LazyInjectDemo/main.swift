// Runs the BloodMagic article's examples with LazyInject.
//
//   swift run LazyInjectDemo            every scene, in order
//   swift run LazyInjectDemo --list     the scenes' names
//   swift run LazyInjectDemo news       one scene
//   swift run LazyInjectDemo --timeline the launch, recorded: a summary, a trace file, a chart
//   swift run LazyInjectDemo mocks --ui-testing
//                                       with the UI-testing module (canned network responses)
//
// The registrations live in Initializers/, one module per file. They are installed before the
// first resolution by `AutomaticModules.swift`, with no call here.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(await Demo.run(arguments: Array(CommandLine.arguments.dropFirst())))
