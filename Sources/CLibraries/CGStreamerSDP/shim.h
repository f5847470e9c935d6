#pragma once
#include <gst/sdp/sdp.h>
