// BankExplorer: CuTe's integer sequences as NVRTC with a newer CCCL can compile them.
//
// CuTe (CUTLASS 4.2) uses cuda::std::integer_sequence under NVRTC and defines its own
// cute::get<I>(integer_sequence), which returns a compile-time integral_constant. CCCL 3.5 added
// C++26's cuda::std::get<I>(integer_sequence) (a run-time value), found by argument-dependent
// lookup, and every call in CuTe becomes ambiguous ("more than one instance of overloaded function
// cute::get"). Here CuTe's sequences are a type of their own namespace (the same template, made by
// CCCL's make_integer_sequence), so only CuTe's get is found. See ../config.hpp.
#pragma once
#include <cute/config.hpp>
#include <cute/util/type_traits.hpp>
#include <cute/numeric/integral_constant.hpp>

#if defined(BANKEXPLORER_CUTE_OWN_SEQUENCES)
namespace bankexplorer_cute_std {
using namespace cuda::std;

template <class T, T... Ints>
struct integer_sequence {
  using value_type = T;
  __host__ __device__ static constexpr size_t size() noexcept { return sizeof...(Ints); }
};

template <class S>
struct from_cccl;
template <class T, T... Ints>
struct from_cccl<cuda::std::integer_sequence<T, Ints...>> {
  using type = integer_sequence<T, Ints...>;
};

template <class T, T N>
using make_integer_sequence = typename from_cccl<cuda::std::make_integer_sequence<T, N>>::type;
}  // namespace bankexplorer_cute_std

#undef CUTE_STL_NAMESPACE
#define CUTE_STL_NAMESPACE bankexplorer_cute_std
#include_next <cute/numeric/integer_sequence.hpp>
#undef CUTE_STL_NAMESPACE
#define CUTE_STL_NAMESPACE cuda::std  // as cute/config.hpp says under NVRTC
#else
#include_next <cute/numeric/integer_sequence.hpp>
#endif
