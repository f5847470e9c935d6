#pragma once
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
