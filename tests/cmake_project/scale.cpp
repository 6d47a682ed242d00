// Device function defined in a library of the project, called by a kernel in main.cpp.
float scale(float x) { return 3.f * x + 1.f; }
