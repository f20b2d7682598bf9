// What kind of type a metadata record describes, for the checks' warnings.
// Internal to LazyInjectChecks: the names start with an underscore and may change in any release.
#ifndef LAZYINJECT_TYPE_CATEGORY_H
#define LAZYINJECT_TYPE_CATEGORY_H

/// What `type_category` says of a type: a class, a struct or enum other than `Optional`, an
/// existential (`any P`, `Any`, `AnyObject`), or anything else (an optional, a tuple, a function).
#define LAZYINJECT_CATEGORY_CLASS 0
#define LAZYINJECT_CATEGORY_VALUE 1
#define LAZYINJECT_CATEGORY_EXISTENTIAL 2
#define LAZYINJECT_CATEGORY_OTHER 3

/// The category of `type`, read from its metadata's kind. Only for warnings that can be certain.
int _lazyinject_type_category(const void *_Nonnull type);

#endif
