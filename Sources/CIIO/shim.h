// libiio 0.24, imported as is: every function is callable from Swift, so no wrappers are needed.
#include <iio.h>
