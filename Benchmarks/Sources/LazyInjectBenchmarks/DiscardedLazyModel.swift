import LazyInject

// The discarded model row's subject: a model with five `@Lazy` dependencies from a factory that
// is never inlined, released without a read (CostMeasures.swift).
//
// A file of its own, away from its control (DiscardedEagerModel.swift), whose loop differs only
// in the factory it calls: see TargetCold.swift on LLVM's function merging.

@inline(never) func newLazyViewModel() -> LazyViewModel { LazyViewModel() }

@inline(never) func discardLazyViewModels(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count { sum &+= newLazyViewModel().tag }
  return sum
}
