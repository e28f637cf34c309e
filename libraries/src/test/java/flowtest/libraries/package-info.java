/**
 * Plain client code over unmodified libraries (Jedis, Apache HttpClient 5, pgjdbc), handed Flow's socket factory,
 * which the bridge tests run loaded normally and through a {@code ContinuationClassLoader}. Results go back as
 * strings, never through static state (each loader has its own copy of these classes).
 */
package flowtest.libraries;
