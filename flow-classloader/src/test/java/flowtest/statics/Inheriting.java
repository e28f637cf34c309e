package flowtest.statics;

/** Inherits {@link Base#pause()}: a call through this class runs {@code Base}'s. */
public class Inheriting extends Base {
}
