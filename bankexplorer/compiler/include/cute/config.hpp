// BankExplorer: CuTe's config as NVRTC with the CCCL of the nvidia-cuda-cccl wheel can compile it.
//
// Under NVRTC, CuTe (CUTLASS 4.2) forward-declares ::std::tuple_size and ::std::tuple_element as
// variadic templates ("template <class... _Tp> struct tuple_size;") before specializing them for
// its tuples, arrays and type lists (structured bindings of CuTe types, which CuTe itself uses).
// CCCL 3.0 (CUDA 13.0) declares nothing in ::std; newer CCCL (3.5 in nvidia-cuda-cccl 13.3)
// declares both there, with one type parameter, and NVRTC rejects CuTe's redeclaration: "declaration
// is incompatible with template parameter _Tp" in cute/container/tuple.hpp. Here CuTe's own blocks
// are switched off (CUTE_STL_NAMESPACE_IS_CUDA_STD) and the same specializations are given against
// CCCL's declarations. Nothing changes under nvcc or with an older CCCL.
#pragma once
#include_next <cute/config.hpp>

#if defined(__CUDACC_RTC__) && defined(CUTE_STL_NAMESPACE_IS_CUDA_STD)
#include <cuda/std/version>
#if defined(CCCL_VERSION) && CCCL_VERSION >= 3001000
#include <cuda/std/__tuple_dir/tuple_size.h>
#include <cuda/std/__tuple_dir/tuple_element.h>
#include <cuda/std/tuple>
#undef CUTE_STL_NAMESPACE_IS_CUDA_STD
#define BANKEXPLORER_CUTE_OWN_SEQUENCES  // and CuTe's integer sequences a type of their own: numeric/integer_sequence.hpp

namespace cute {
template <class T, size_t N> struct array;
template <class T, size_t N> struct array_subbyte;
template <class... T> struct tuple;
template <class... T> struct type_list;
template <class... T> struct ArithmeticTuple;
}  // namespace cute

namespace std {
template <class T, size_t N>
struct tuple_size<cute::array<T, N>> : cuda::std::integral_constant<size_t, N> {};
template <size_t I, class T, size_t N>
struct tuple_element<I, cute::array<T, N>> { using type = T; };

template <class T, size_t N>
struct tuple_size<cute::array_subbyte<T, N>> : cuda::std::integral_constant<size_t, N> {};
template <size_t I, class T, size_t N>
struct tuple_element<I, cute::array_subbyte<T, N>> { using type = T; };

template <class... T>
struct tuple_size<cute::tuple<T...>> : cuda::std::integral_constant<size_t, sizeof...(T)> {};
template <size_t I, class... T>
struct tuple_element<I, cute::tuple<T...>> : cuda::std::tuple_element<I, cuda::std::tuple<T...>> {};

template <class... T>
struct tuple_size<cute::type_list<T...>> : cuda::std::integral_constant<size_t, sizeof...(T)> {};
template <size_t I, class... T>
struct tuple_element<I, cute::type_list<T...>> : cuda::std::tuple_element<I, cuda::std::tuple<T...>> {};

template <class... T>
struct tuple_size<cute::ArithmeticTuple<T...>> : cuda::std::integral_constant<size_t, sizeof...(T)> {};
template <size_t I, class... T>
struct tuple_element<I, cute::ArithmeticTuple<T...>> : cuda::std::tuple_element<I, cuda::std::tuple<T...>> {};
}  // namespace std
#endif
#endif
