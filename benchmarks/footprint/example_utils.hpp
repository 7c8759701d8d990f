// What oneDNN's C++ examples (cnn_training_bf16.cpp, rnn_training_f32.cpp)
// take from its examples/example_utils.hpp, written for
// benchmarks/bench_footprint.py: the engine kind, the error handling that
// answers "unimplemented" as oneDNN's examples do, product of dims, and the
// copy of user data into a memory object.
#ifndef BENCH_EXAMPLE_UTILS_HPP
#define BENCH_EXAMPLE_UTILS_HPP
#include <cstring>
#include <exception>
#include <functional>
#include <iostream>
#include <numeric>

#include "oneapi/dnnl/dnnl.hpp"

// thrown where the CPU has no implementation (bf16 without native support)
struct example_allows_unimplemented : public std::exception {
    example_allows_unimplemented(const char *message) noexcept : message(message) {}
    const char *what() const noexcept override { return message; }
    const char *message;
};

inline dnnl::engine::kind parse_engine_kind(int, char **) {
    return dnnl::engine::kind::cpu;
}

inline int handle_example_errors(
        std::function<void(dnnl::engine::kind)> example, dnnl::engine::kind kind) {
    try {
        example(kind);
        std::cout << "Example passed on CPU." << std::endl;
        return 0;
    } catch (example_allows_unimplemented &e) {
        std::cout << e.message << std::endl;
        return 0;
    } catch (dnnl::error &e) {
        if (e.status == dnnl_unimplemented) {
            std::cout << "No implementation is available on this CPU." << std::endl;
            return 0;
        }
        std::cout << "oneDNN error: " << e.what() << std::endl;
        return 1;
    }
}

inline dnnl::memory::dim product(const dnnl::memory::dims &dims) {
    return std::accumulate(dims.begin(), dims.end(), (dnnl::memory::dim)1,
            std::multiplies<dnnl::memory::dim>());
}

inline void write_to_dnnl_memory(void *handle, dnnl::memory &mem) {
    void *ptr = mem.get_data_handle();
    if (ptr && handle) std::memcpy(ptr, handle, mem.get_desc().get_size());
}
#endif
