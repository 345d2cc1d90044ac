// libudev, imported as is: every function orientd uses is callable from Swift.
#include <libudev.h>
