#include "CLinuxInput.h"
