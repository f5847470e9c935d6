#pragma once
#include <gst/audio/audio.h>
