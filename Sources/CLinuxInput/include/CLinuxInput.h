#ifndef HAPTICS_CLINUXINPUT_H
#define HAPTICS_CLINUXINPUT_H
#include <linux/input.h>
#endif
