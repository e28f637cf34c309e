/**
 * Classes that {@code MissingClassesTest} hides from the parent loader: a compile-only annotation and
 * an optional dependency, present when the fixtures of {@code flowtest.missing} are compiled, absent
 * when they are loaded.
 */
package flowtest.absent;
