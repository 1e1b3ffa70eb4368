#include "CALSA.h"
